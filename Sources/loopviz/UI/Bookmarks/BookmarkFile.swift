#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes the bookmark file beside a lesson or a recording (`lesson.loop.marks`): the runtime's I/O for
/// ``Effect/saveBookmarks(path:text:)``. Written safely: into a temporary file beside it, renamed over it once
/// whole; never onto anything but a regular file (a link, a FIFO, a device is refused), never more than
/// ``Bookmarks/maximumFileBytes``.
enum BookmarkFile {
    /// The bookmark file of the lesson or recording at `path`.
    static func path(for path: String) -> String { path + ".marks" }

    /// The marks in the file at `path`; none when it does not exist, is not a regular file or is too large.
    static func read(_ path: String) -> Bookmarks {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            Int(info.st_size) <= Bookmarks.maximumFileBytes
        else { return Bookmarks() }
        switch ScriptLoader.read(path, limit: Bookmarks.maximumFileBytes) {
        case .success(let bytes): return Bookmarks(text: String(decoding: bytes, as: UTF8.self))
        case .failure: return Bookmarks()
        }
    }

    /// Writes `text` to `path`; the reason when it could not (the old file, if any, is then as it was).
    static func save(_ text: String, to path: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count <= Bookmarks.maximumFileBytes else {
            return "larger than \(Bookmarks.maximumFileBytes >> 10) KiB"
        }
        var info = stat()
        let exists = lstat(path, &info) == 0
        if exists && info.st_mode & S_IFMT != S_IFREG { return "not a regular file" }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".loopviz-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return errorText(errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp makes the file 0600: keep the old file's mode, or give a new one the usual 0644.
        fchmod(descriptor, exists ? info.st_mode & 0o7777 : 0o644)
        var written = 0
        var failure: String?
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = errorText(errno)
                break
            }
            written += count
        }
        if failure == nil && fsync(descriptor) != 0 { failure = errorText(errno) }
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = errorText(errno) }
        if failure != nil { unlink(temporary) }
        return failure
    }
}

/// The system's words for `code` (`No space left on device`).
private func errorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(validatingCString: text) ?? "error \(code)"
}
