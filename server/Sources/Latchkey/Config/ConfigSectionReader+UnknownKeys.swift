extension ConfigSectionReader {
    /// Adds a problem for every key of the file that nothing asked for, naming the closest known key when one is near.
    ///
    /// Call it after everything has been read: the keys asked for are the schema. A misspelled key would otherwise
    /// be ignored in silence and its setting left at the default, which is how `server.prot` or
    /// `emailLink.codeLifetimSeconds` used to pass `check-config`. Environment variables are not checked: the
    /// process environment holds many `LATCHKEY_` names that are not settings (`LATCHKEY_BIN`).
    mutating func reportUnknownKeys(in fileKeys: [ConfigFileKey]) {
        for key in fileKeys.sorted(by: { $0.name < $1.name }) {
            let name = key.name
            if key.path.contains(where: { $0.contains(".") }) {
                // swift-configuration splits keys at dots, so `{"server.port": 1}` can never be read.
                problems.add(name, "unknown key: write sections as nested objects, not dotted names")
            } else if knownKeys.contains(name) {
                continue
            } else if isSection(name) {
                // A known section given as `null` or `{}` sets nothing, which is harmless; a value in its place is not.
                if key.holdsValue { problems.add(name, "is a section: expected an object") }
            } else if let value = knownKeys.sorted().first(where: { name.hasPrefix($0 + ".") && !isSection($0) }) {
                problems.add(name, "unknown key: `\(value)` is a value, not a section")
            } else if let suggestion = closestKnownKey(to: name) {
                problems.add(name, "unknown key; did you mean `\(suggestion)`?")
            } else {
                problems.add(name, "unknown key: Latchkey has no such setting")
            }
        }
    }

    /// Whether known keys lie under `name`; a list of objects (`apps.ios`) is a key and a section at once.
    private func isSection(_ name: String) -> Bool {
        knownKeys.contains { $0.hasPrefix(name + ".") }
    }

    /// The known key nearest to `name` by edit distance, ignoring case, when it is near enough to be a slip.
    private func closestKnownKey(to name: String) -> String? {
        let target = Array(name.lowercased())
        // Short names allow one edit, longer ones up to three: `mod` → `mode`, `emailLink.codeLifetimSeconds`.
        let allowed = min(3, max(1, target.count / 5))
        var best: (key: String, distance: Int)?
        for key in knownKeys.sorted() {
            let distance = Self.editDistance(target, Array(key.lowercased()))
            if distance <= allowed, distance < best?.distance ?? .max { best = (key, distance) }
        }
        return best?.key
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each count one,
    /// so the common typo `prot` for `port` is a single edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
