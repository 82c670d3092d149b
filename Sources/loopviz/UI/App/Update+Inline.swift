import LoopEngine

/// `update`, with every engine run it asks for done here and now (blocking) and answered at once: the runtime's
/// part without a thread. For the commands that draw one screen, the UI bench and the tests; the terminal runtime
/// runs the engine off the UI's thread instead.
func updateInline(_ model: inout AppModel, _ message: AppMessage) -> [Effect] {
    var done: [Effect] = []
    var effects = update(&model, message)
    // Each run answered may ask for a longer one, until the trace reaches what was asked or cannot grow.
    while !effects.isEmpty {
        let effect = effects.removeFirst()
        if case .runEngine(let request) = effect {
            effects += update(&model, .engineRan(request.run()))
        } else if case .compareRuns(let request) = effect {
            effects += update(&model, .comparisonRan(request.compare()))
        } else if case .readReplayWindow(let request) = effect {
            effects += update(&model, .replayWindowRead(request.read()))
        } else {
            done.append(effect)
        }
    }
    return done
}
