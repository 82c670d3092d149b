import LoopEngine

extension FirefoxProfileFormatter {
    /// The profile's categories (`meta.categories`), by index. The first is the default category the format
    /// requires (grey).
    enum Category: Int, CaseIterable {
        case other, timers, sources, blocks, observers, mainQueue, sleep, hang

        var name: String {
            switch self {
            case .other: "Other"
            case .timers: "Timers"
            case .sources: "Sources"
            case .blocks: "Blocks"
            case .observers: "Observers"
            case .mainQueue: "Main queue"
            case .sleep: "Sleep"
            case .hang: "Hang"
            }
        }

        /// A colour of the format's `CategoryColor`.
        var color: String {
            switch self {
            case .other: "grey"
            case .timers: "yellow"
            case .sources: "blue"
            case .blocks: "green"
            case .observers: "purple"
            case .mainQueue: "orange"
            case .sleep: "lightblue"
            case .hang: "red"
            }
        }

        var json: String {
            JSONText.object([
                ("name", JSONText.quoted(name)), ("color", JSONText.quoted(color)),
                ("subcategories", "[" + JSONText.quoted("Other") + "]"),
            ])
        }

        /// The category of a callout of `kind`; nil for what is not a callout.
        init?(callout kind: LoopEvent.Kind) {
            switch kind {
            case .timer: self = .timers
            case .source0, .source1, .perform: self = .sources
            case .block: self = .blocks
            case .observer: self = .observers
            case .mainQueue: self = .mainQueue
            default: return nil
            }
        }

        /// The category of the work a phase runs.
        init(phase: HangAnalysis.Phase) {
            switch phase {
            case .entryObservers, .timerObservers, .waitingObservers, .exitObservers: self = .observers
            case .sourcesAndBlocks, .polledWork: self = .sources
            case .asleep: self = .sleep
            case .wakeUpWork, .nestedRun: self = .other
            }
        }
    }

    /// The marker types, each described by a schema in `meta.markerSchema` (the payload's `type`).
    enum MarkerType: String, CaseIterable {
        case callout = "LoopCallout"
        case sleep = "LoopSleep"
        case phase = "LoopPhase"
        case hang = "LoopHang"
        case mark = "LoopMark"

        /// The fields the payload may have, in order: key and label.
        var fields: [(String, String)] {
            switch self {
            case .callout: [("kind", "Kind"), ("item", "Item"), ("mode", "Mode"), ("detail", "Detail")]
            case .sleep: [("detail", "Waits for")]
            case .phase: [("phase", "Phase"), ("mode", "Mode"), ("depth", "Run depth")]
            case .hang: [("verdict", "Verdict"), ("length", "Length"), ("heldBy", "Held by")]
            case .mark: [("mark", "Mark")]
            }
        }

        var schema: String {
            let fields = self.fields.map { key, label in
                JSONText.object([
                    ("key", JSONText.quoted(key)), ("label", JSONText.quoted(label)),
                    ("format", JSONText.quoted(key == "depth" ? "integer" : "string")),
                ])
            }
            let display = ["marker-chart", "marker-table", "timeline-overview"].map(JSONText.quoted)
            return JSONText.object([
                ("name", JSONText.quoted(rawValue)), ("tooltipLabel", JSONText.quoted("{marker.name}")),
                ("tableLabel", JSONText.quoted("{marker.name}")), ("chartLabel", JSONText.quoted("{marker.name}")),
                ("display", "[" + display.joined(separator: ",") + "]"),
                ("fields", "[" + fields.joined(separator: ",") + "]"),
            ])
        }
    }
}
