import Foundation
import Testing

/// The Firefox Profiler's processed profile format, version 70 (firefox-devtools/profiler,
/// `src/types/profile.ts` and `src/types/markers.ts`; docs/recording.md cites the commit), as checks on a file
/// Foundation's parser read: the keys each object must have and their types, and the columns of a table, each
/// as long as its `length`. What the profiler itself does with the file is not checked here.
enum FirefoxProfileSchema {
    struct Marker: Equatable, CustomStringConvertible {
        var name: String
        var start: Double
        var end: Double
        var category: String
        var isInstant = false
        var description: String { "\(name) \(start)...\(end) [\(category)]\(isInstant ? " instant" : "")" }
    }

    /// A thread's name and its markers, in file order, with each marker's payload.
    struct Thread {
        var name: String
        var markers: [Marker]
        var data: [[String: Any]]
    }

    /// A JSON number (not `true` or `false`, which some Foundations also hand out as numbers 1 and 0).
    static func number(_ value: Any?) -> Double? {
        guard let value, type(of: value) != Bool.self else { return nil }
        if let integer = value as? Int { return Double(integer) }
        if let double = value as? Double { return double }
        return (value as? NSNumber)?.doubleValue
    }

    /// `object[key]` as an array of `length` entries, each passing `check`.
    static func column(
        _ object: [String: Any], _ key: String, length: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ check: (Any) -> Bool
    ) throws -> [Any] {
        let values = try #require(object[key] as? [Any], "\(key) is an array", sourceLocation: sourceLocation)
        #expect(values.count == length, "\(key) has one entry per row", sourceLocation: sourceLocation)
        let typed = values.allSatisfy(check)
        #expect(typed, "\(key)'s entries have its type", sourceLocation: sourceLocation)
        return values
    }

    /// An empty table with exactly these columns and `length` 0.
    static func emptyTable(
        _ object: Any?, _ columns: [String], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let table = try #require(object as? [String: Any], sourceLocation: sourceLocation)
        #expect(number(table["length"]) == 0, sourceLocation: sourceLocation)
        for key in columns { _ = try column(table, key, length: 0, sourceLocation: sourceLocation) { _ in true } }
    }

    /// Checks the whole file and returns its threads. With `samples`, the sample tables are checked by
    /// ``sampleStacks(_:)`` instead of being expected empty.
    static func check(_ text: String, samples hasSamples: Bool = false) throws -> [Thread] {
        let top = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "the file is a JSON object")
        let meta = try #require(top["meta"] as? [String: Any])
        #expect(number(meta["preprocessedProfileVersion"]) == 70)
        #expect(number(meta["version"]) == 36, "meta.version is the Gecko format's version")
        for key in ["interval", "startTime", "processType", "stackwalk"] { #expect(number(meta[key]) != nil, "\(key)") }
        #expect(meta["product"] is String)
        let categories = try #require(meta["categories"] as? [[String: Any]])
        #expect(categories.first?["color"] as? String == "grey", "the default category is grey")
        let colors: Set = [
            "transparent", "purple", "green", "orange", "yellow", "lightblue", "blue", "brown", "magenta", "red",
            "lightred", "darkgrey", "grey",
        ]
        for category in categories {
            #expect(category["name"] is String)
            #expect(colors.contains(category["color"] as? String ?? ""), "a CategoryColor")
            #expect(category["subcategories"] is [String])
        }
        let schema = try #require(meta["markerSchema"] as? [[String: Any]])
        var schemaNames: Set<String> = []
        for entry in schema {
            schemaNames.insert(try #require(entry["name"] as? String))
            #expect((entry["display"] as? [String])?.isEmpty == false)
            let fields = try #require(entry["fields"] as? [[String: Any]])
            #expect(fields.allSatisfy { $0["key"] is String && $0["format"] is String })
        }
        #expect(top["libs"] is [Any])
        let shared = try #require(top["shared"] as? [String: Any])
        if !hasSamples {
            try emptyTable(shared["stackTable"], ["frame", "prefixOffset"])
            try emptyTable(
                shared["frameTable"],
                [
                    "address", "lib", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                    "innerWindowID", "line", "column", "originalLocation",
                ])
            try emptyTable(
                shared["funcTable"],
                [
                    "name", "isJS", "relevantForJS", "resource", "source", "lineNumber", "columnNumber",
                    "originalLocation",
                ])
            try emptyTable(shared["resourceTable"], ["name", "host", "type"])
        }
        try emptyTable(shared["nativeSymbols"], ["libIndex", "address", "name", "functionSize"])
        try emptyTable(shared["sources"], ["id", "filename", "startLine", "startColumn", "sourceMapURL", "content"])
        try emptyTable(shared["sourceLocationTable"], ["source", "line", "column"])
        let strings = try #require(shared["stringArray"] as? [String])
        var threads: [Thread] = []
        for thread in try #require(top["threads"] as? [[String: Any]]) {
            #expect(thread["processType"] is String)
            for key in ["processStartupTime", "registerTime"] { #expect(number(thread[key]) != nil, "\(key)") }
            for key in ["processShutdownTime", "unregisterTime"] { #expect(thread[key] is NSNull, "\(key)") }
            #expect(thread["pausedRanges"] is [Any])
            #expect(thread["isMainThread"] is Bool)
            #expect(thread["pid"] is String, "a processed profile's pid is a string")
            #expect(number(thread["tid"]) != nil)
            let samples = try #require(thread["samples"] as? [String: Any])
            #expect(samples["weightType"] as? String == "samples")
            #expect(samples["weight"] is NSNull)
            if !hasSamples { try emptyTable(samples, ["stack", "time"]) }
            let markers = try #require(thread["markers"] as? [String: Any])
            let length = Int(try #require(number(markers["length"])))
            let names = try column(markers, "name", length: length) { (number($0) ?? -1) < Double(strings.count) }
            let starts = try column(markers, "startTime", length: length) { number($0) != nil }
            let ends = try column(markers, "endTime", length: length) { number($0) != nil }
            let phases = try column(markers, "phase", length: length) { number($0) == 0 || number($0) == 1 }
            let kinds = try column(markers, "category", length: length) {
                (number($0) ?? -1) < Double(categories.count)
            }
            let data = try column(markers, "data", length: length) {
                schemaNames.contains(($0 as? [String: Any])?["type"] as? String ?? "")
            }
            var list: [Marker] = []
            for row in 0..<length {
                list.append(
                    Marker(
                        name: strings[Int(number(names[row]) ?? 0)], start: number(starts[row]) ?? 0,
                        end: number(ends[row]) ?? 0,
                        category: categories[Int(number(kinds[row]) ?? 0)]["name"] as? String ?? "",
                        isInstant: number(phases[row]) == 0))
            }
            #expect(list.allSatisfy { $0.start <= $0.end }, "no marker ends before it starts")
            #expect(list.map(\.start) == list.map(\.start).sorted(), "markers are in order of start")
            threads.append(
                Thread(
                    name: try #require(thread["name"] as? String), markers: list,
                    data: data.compactMap { $0 as? [String: Any] }))
        }
        return threads
    }

    /// Checks the shared sample tables and each thread's samples (indices in range, columns as long as their
    /// tables, the stack table in topological order) and returns, per thread, each sample's stack as function
    /// names, top first.
    static func sampleStacks(_ text: String) throws -> [[[String]]] {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let shared = try #require(top["shared"] as? [String: Any])
        let strings = try #require(shared["stringArray"] as? [String])
        func table(_ key: String) throws -> (values: [String: Any], length: Int) {
            let values = try #require(shared[key] as? [String: Any], "\(key)")
            return (values, Int(try #require(number(values["length"]), "\(key).length")))
        }
        let stacks = try table("stackTable")
        let frames = try table("frameTable")
        let functions = try table("funcTable")
        let resources = try table("resourceTable")
        let index = { (limit: Int) in { (value: Any) in (number(value).map { $0 >= 0 && $0 < Double(limit) }) ?? false }
        }
        let stackFrames = try column(stacks.values, "frame", length: stacks.length, index(frames.length))
        let offsets = try column(stacks.values, "prefixOffset", length: stacks.length) { (number($0) ?? -1) >= 0 }
        for (row, offset) in offsets.enumerated() { #expect(Int(number(offset) ?? 0) <= row, "parents come first") }
        let frameFunctions = try column(frames.values, "func", length: frames.length, index(functions.length))
        for key in ["address", "lib"] {
            _ = try column(frames.values, key, length: frames.length) { number($0) != nil }
        }
        for key in ["inlineDepth", "category", "subcategory", "innerWindowID"] {
            _ = try column(frames.values, key, length: frames.length) { (number($0) ?? -1) >= 0 }
        }
        for key in ["nativeSymbol", "line", "column", "originalLocation"] {
            _ = try column(frames.values, key, length: frames.length) { $0 is NSNull || number($0) != nil }
        }
        let names = try column(functions.values, "name", length: functions.length, index(strings.count))
        for key in ["isJS", "relevantForJS"] {
            _ = try column(functions.values, key, length: functions.length) { $0 is Bool }
        }
        _ = try column(functions.values, "resource", length: functions.length) {
            number($0) == -1 || index(resources.length)($0)
        }
        for key in ["source", "lineNumber", "columnNumber", "originalLocation"] {
            _ = try column(functions.values, key, length: functions.length) { $0 is NSNull || number($0) != nil }
        }
        _ = try column(resources.values, "name", length: resources.length, index(strings.count))
        _ = try column(resources.values, "host", length: resources.length) { $0 is NSNull }
        _ = try column(resources.values, "type", length: resources.length) { number($0) == 1 }
        var result: [[[String]]] = []
        for thread in try #require(top["threads"] as? [[String: Any]]) {
            let samples = try #require(thread["samples"] as? [String: Any])
            let length = Int(try #require(number(samples["length"])))
            let sampled = try column(samples, "stack", length: length, index(stacks.length))
            let times = try column(samples, "time", length: length) { number($0) != nil }
            #expect(times.map { number($0)! } == times.map { number($0)! }.sorted(), "samples in order of time")
            result.append(
                sampled.map { value in
                    var stack: [String] = []
                    var node = Int(number(value)!)
                    while true {
                        let function = Int(number(frameFunctions[Int(number(stackFrames[node])!)])!)
                        stack.append(strings[Int(number(names[function])!)])
                        let offset = Int(number(offsets[node])!)
                        if offset == 0 { break }
                        node -= offset
                    }
                    return stack
                })
        }
        return result
    }
}
