extension Language {
    /// The language the environment's locale asks for, read as POSIX reads it: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty decides (`zh_CN.UTF-8` → `.zh`); English when that one
    /// names a language loopviz has no words in (`C`, `POSIX`, `fr_FR`) or none is set.
    package static func preferred(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return Language(locale: value) ?? .en
        }
        return .en
    }
}
