extension ConfigSectionReader {
    /// The key prefixes of the list of objects at `key` (`apps.ios.0`, `apps.ios.1`, …), as `JSONConfigFile` flattens
    /// it; an item counts when it holds any of `fields`.
    mutating func objectList(_ key: String, fields: [String]) -> [String] {
        // An empty list arrives as a list of strings; a list of objects as numbered keys.
        if let plain = stringArray(key) {
            if !plain.isEmpty { problems.add(key, "must be a list of objects") }
            return []
        }
        var prefixes: [String] = []
        while fields.contains(where: { isPresent("\(key).\(prefixes.count).\($0)") }) {
            prefixes.append("\(key).\(prefixes.count)")
        }
        return prefixes
    }
}
