import Foundation
import LatchkeyDomain
import Mustache

/// The languages one family of templates (`email/`, `pages/`) is written in, and how a request's language falls
/// back to one of them. A language counts only when its folder holds every template the family needs.
struct TemplateLanguages: Sendable {
    static let defaultLanguage = "en"

    /// Lower-cased language folder name → the folder name as found on disk.
    private let folders: [String: String]

    /// Scans `root/family/*/`; throws when the English folder misses one of `names`, since English is the fallback.
    init(templates: TemplateLibrary, family: String, names: [String]) throws {
        let (library, root) = (templates.library, templates.root)
        let candidates = (try? FileManager.default.contentsOfDirectory(atPath: root + family)) ?? []
        var folders: [String: String] = [:]
        for folder in candidates where names.allSatisfy({ library.getTemplate(named: "\(family)/\(folder)/\($0)") != nil }) {
            folders[folder.lowercased()] = folder
        }
        guard folders[Self.defaultLanguage] != nil else {
            let expected = names.map { "\(root)\(family)/\(Self.defaultLanguage)/\($0).mustache" }.joined(separator: ", ")
            throw StartupError("missing \(family) templates: expected \(expected)")
        }
        self.folders = folders
    }

    /// Every language folder found complete.
    var all: [String] { Array(folders.values) }

    /// The folder for `language`: the tag, then ever shorter prefixes (`zh-Hant-TW` → `zh-Hant` → `zh`), then English.
    /// Chinese regions that write Traditional characters reach `zh-Hant` when the tag names only the region.
    func folder(for language: LanguageTag) -> String {
        var subtags = language.value.lowercased().split(separator: "-").map(String.init)
        if subtags.first == "zh", subtags.count == 2, ["tw", "hk", "mo"].contains(subtags[1]) { subtags = ["zh", "hant"] }
        while !subtags.isEmpty {
            if let folder = folders[subtags.joined(separator: "-")] { return folder }
            subtags.removeLast()
        }
        return folders[Self.defaultLanguage] ?? Self.defaultLanguage
    }
}
