import Configuration

extension AppConfiguration {
    /// Every key Latchkey reads from the configuration file at `path`: the keys reading asks for, valid values or not,
    /// which are also what `check-config` holds a file to (a key outside them is unknown). An item of a list of
    /// objects is named by its index (`apps.ios.0.teamId`), and the item after the last one is asked for too.
    ///
    /// `docs/configuration.md` documents exactly these keys, and `ConfigurationReferenceTests` holds it to them.
    package static func settingKeys(readingFile path: String) throws -> Set<String> {
        let file = try JSONConfigFile(path: path)
        var keys: Set<String> = []
        _ = try? AppConfiguration(reader: ConfigReader(provider: file.provider), environment: [:], fileKeys: [], schema: { keys = $0 })
        return keys
    }
}
