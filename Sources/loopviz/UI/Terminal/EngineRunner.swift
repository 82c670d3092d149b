/// Where the runtime runs the engine runs `update` asks for (``Effect/runEngine(_:)``).
protocol EngineRunner: AnyObject {
    /// Starts `request`; its answer comes out of ``take()``.
    func start(_ request: EngineRequest)

    /// The answers that came in since the last call.
    func take() -> [EngineResult]

    /// A descriptor that becomes readable when an answer is waiting (nil: answers are ready as soon as
    /// ``start(_:)`` returns).
    var readEnd: Int32? { get }
}
