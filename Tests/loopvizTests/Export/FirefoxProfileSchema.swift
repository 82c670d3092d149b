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

    /// Checks the whole file and returns its threads.
    static func check(_ text: String) throws -> [Thread] {
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
        try emptyTable(shared["stackTable"], ["frame", "prefixOffset"])
        try emptyTable(
            shared["frameTable"],
            [
                "address", "lib", "inlineDepth", "category", "subcategory", "func", "nativeSymbol", "innerWindowID",
                "line", "column", "originalLocation",
            ])
        try emptyTable(
            shared["funcTable"],
            ["name", "isJS", "relevantForJS", "resource", "source", "lineNumber", "columnNumber", "originalLocation"])
        try emptyTable(shared["resourceTable"], ["name", "host", "type"])
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
            try emptyTable(samples, ["stack", "time"])
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
}
