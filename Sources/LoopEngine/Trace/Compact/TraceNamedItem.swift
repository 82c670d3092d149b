/// An engine object with an unchanging name that events name (a source, a timer, an observer): it keeps its name's
/// id in the recorder it emits to, so the core hands the recorder that id instead of the string.
protocol TraceNamedItem: AnyObject {
    var name: String { get }
    var traceName: TraceNameSlot { get set }
}

extension LoopSource: TraceNamedItem {}
extension LoopTimer: TraceNamedItem {}
extension LoopObserver: TraceNamedItem {}
