#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an output path would overwrite an input, however either is spelled (`x.loop`, `./x.loop`, a
/// symbolic link, a hard link, `dir/../x.loop`).
enum SameFile {
    /// True when `output` names the file `input` names: the same device and inode when `output` exists; else the
    /// same path once both are made absolute, resolved (what exists of them) and cleaned of `.` and `..`.
    static func check(_ output: String, _ input: String) -> Bool {
        var out = stat()
        var into = stat()
        if stat(output, &out) == 0 {
            return stat(input, &into) == 0 && out.st_dev == into.st_dev && out.st_ino == into.st_ino
        }
        return resolved(output) == resolved(input)
    }

    /// `path` made absolute and free of `.`, `..` and symbolic links as far as it exists: the longest existing
    /// prefix goes through `realpath`, the rest is cleaned lexically.
    static func resolved(_ path: String) -> String {
        var parts = absolute(path).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while !parts.isEmpty {
            let prefix = "/" + parts.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                return clean(String(cString: real) + "/" + rest.joined(separator: "/"))
            }
            rest.insert(parts.removeLast(), at: 0)
        }
        return clean("/" + rest.joined(separator: "/"))
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }

    /// Removes `.`, empty parts and each `..` with the part before it.
    private static func clean(_ path: String) -> String {
        var kept: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !kept.isEmpty { kept.removeLast() }
            default: kept.append(part)
            }
        }
        return "/" + kept.joined(separator: "/")
    }
}
