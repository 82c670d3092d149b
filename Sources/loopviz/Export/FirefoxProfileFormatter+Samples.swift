import LoopEngine

extension FirefoxProfileFormatter {
    /// A recording's stack samples (`loopviz record --stacks`) as the profile's samples: each thread's samples
    /// table, and the shared stack, frame, function and resource tables they index. A frame is an address, a
    /// function a name in one object (named when the recording is read: `StackSymbolizer`), a resource an object's
    /// file; no library table is written (`lib` is -1), so the profiler shows the names it is given.
    struct Samples {
        struct Sample {
            var time: Int64
            var stack: Int
        }

        private(set) var byThread: [[Sample]]
        /// The stack table: each node's frame and parent node (-1 for a root), parents before children.
        private(set) var stackFrames: [Int] = []
        private(set) var stackParents: [Int] = []
        /// The frame table: each frame's function.
        private(set) var frameFunctions: [Int] = []
        /// The function table: each function's name (into the strings) and resource (-1: none).
        private(set) var functionNames: [Int] = []
        private(set) var functionResources: [Int] = []
        /// The resource table: each object's file name (into the strings).
        private(set) var resourceNames: [Int] = []

        var isEmpty: Bool { frameFunctions.isEmpty }

        init(_ events: LoopTrace, threads: [String], strings: inout StringTable) {
            byThread = Array(repeating: [], count: threads.count)
            let threadIndex = Dictionary(threads.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            var symbolizer = StackSymbolizer()
            for event in events {
                if case .module(let module) = event.fact { symbolizer.add(module: module, path: event.name ?? "") }
            }
            var frames: [UInt64: Int] = [:]
            var functions: [String: Int] = [:]
            var resources: [String: Int] = [:]
            var nodes: [Int64: Int] = [:]
            func intern(_ text: String) -> Int {
                strings.add(text)
                return strings.index[text]!
            }
            for event in events {
                guard case .stack(let sample) = event.fact, !sample.frames.isEmpty,
                    let thread = threadIndex[event.loop]
                else { continue }
                var parent = -1
                // The profile's stacks go from the root to the sampled instruction.
                for (position, address) in sample.frames.enumerated().reversed() {
                    let frameKey = address &* 2 &+ (position > 0 ? 1 : 0)
                    let frame: Int
                    if let known = frames[frameKey] {
                        frame = known
                    } else {
                        let named = symbolizer.frame(address, isReturnAddress: position > 0)
                        let functionKey = (named.function ?? named.words) + "\u{0}" + (named.module ?? "")
                        let function: Int
                        if let known = functions[functionKey] {
                            function = known
                        } else {
                            var resource = -1
                            if let module = named.module {
                                if let known = resources[module] {
                                    resource = known
                                } else {
                                    resource = resourceNames.count
                                    resources[module] = resource
                                    resourceNames.append(intern(module))
                                }
                            }
                            function = functionNames.count
                            functions[functionKey] = function
                            functionNames.append(intern(TerminalSafeText.terminalSafe(named.function ?? named.words)))
                            functionResources.append(resource)
                        }
                        frame = frameFunctions.count
                        frames[frameKey] = frame
                        frameFunctions.append(function)
                    }
                    let nodeKey = Int64(parent + 1) << 32 | Int64(frame)
                    if let known = nodes[nodeKey] {
                        parent = known
                    } else {
                        let node = stackFrames.count
                        nodes[nodeKey] = node
                        stackFrames.append(frame)
                        stackParents.append(parent)
                        parent = node
                    }
                }
                byThread[thread].append(Sample(time: event.time.nanoseconds, stack: parent))
            }
        }

        /// The shared tables' JSON objects, by key; nil where there is no sample (the tables stay empty).
        func tables(category: Int) -> [String: String] {
            guard !isEmpty else { return [:] }
            func list(_ values: [Int]) -> String { "[" + values.map(String.init).joined(separator: ",") + "]" }
            func repeated(_ value: String, _ count: Int) -> String {
                "[" + Array(repeating: value, count: count).joined(separator: ",") + "]"
            }
            let offsets = stackParents.enumerated().map { $1 < 0 ? 0 : $0 - $1 }
            let frames = frameFunctions.count
            let functions = functionNames.count
            return [
                "stackTable": JSONText.object([
                    ("frame", list(stackFrames)), ("prefixOffset", list(offsets)),
                    ("length", String(stackFrames.count)),
                ]),
                "frameTable": JSONText.object([
                    ("address", repeated("-1", frames)), ("lib", repeated("-1", frames)),
                    ("inlineDepth", repeated("0", frames)), ("category", repeated(String(category), frames)),
                    ("subcategory", repeated("0", frames)), ("func", list(frameFunctions)),
                    ("nativeSymbol", repeated("null", frames)), ("innerWindowID", repeated("0", frames)),
                    ("line", repeated("null", frames)), ("column", repeated("null", frames)),
                    ("originalLocation", repeated("null", frames)), ("length", String(frames)),
                ]),
                "funcTable": JSONText.object([
                    ("name", list(functionNames)), ("isJS", repeated("false", functions)),
                    ("relevantForJS", repeated("false", functions)), ("resource", list(functionResources)),
                    ("source", repeated("null", functions)), ("lineNumber", repeated("null", functions)),
                    ("columnNumber", repeated("null", functions)), ("originalLocation", repeated("null", functions)),
                    ("length", String(functions)),
                ]),
                "resourceTable": JSONText.object([
                    ("name", list(resourceNames)), ("host", repeated("null", resourceNames.count)),
                    // `ResourceType.Library`.
                    ("type", repeated("1", resourceNames.count)), ("length", String(resourceNames.count)),
                ]),
            ]
        }

        /// A thread's samples table.
        func samplesJSON(thread: Int) -> String {
            let samples = thread < byThread.count ? byThread[thread] : []
            return JSONText.object([
                ("weightType", JSONText.quoted("samples")), ("weight", "null"),
                ("stack", "[" + samples.map { String($0.stack) }.joined(separator: ",") + "]"),
                ("time", "[" + samples.map { milliseconds($0.time) }.joined(separator: ",") + "]"),
                ("length", String(samples.count)),
            ])
        }
    }
}
