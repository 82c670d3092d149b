import LoopEngine

extension Explanation {
    /// A `query` event: what the call answers and why, by its question (never by its words).
    static func query(_ event: LoopEvent) -> (case: Case, text: String) {
        guard let (question, answer) = event.queryFact else { return plain(event) }
        let said = question.words(for: answer)
        switch question {
        case .currentMode:
            return (
                .queryCurrentMode,
                "currentMode (CFRunLoopCopyCurrentMode) answers \(said): the mode of the innermost run - inside a "
                    + "nested run its mode, the outer run's again once it returns - and nil outside any run."
            )
        case .limitDate(let mode):
            return (
                .queryLimitDate,
                "limitDate(forMode: \(mode)) answers \(said). On the loop's own thread Foundation first polls the "
                    + "mode once (CFRunLoopRunInMode(\(mode), -10, true): due timers fire), then answers nil for an "
                    + "empty mode, distantFuture without a timer, else the next timer's fire date; on another "
                    + "thread it answers nil at once."
            )
        case .nextTimerFireDate(let mode):
            return (
                .queryNextTimerFireDate,
                "CFRunLoopGetNextTimerFireDate(\(mode)) answers \(said): the fire date of the mode's first timer by "
                    + "deadline (during that timer's callout, the date it fires for); none, CF's 0, without a timer."
            )
        case .isWaiting:
            return (
                .queryIsWaiting,
                "CFRunLoopIsWaiting answers \(said): true only while the loop is in its wait, from after "
                    + "beforeWaiting to before afterWaiting - so the loop's own thread never sees true."
            )
        case .contains(let item, let mode):
            return (
                .queryContains,
                "CFRunLoopContains… answers \(said): whether \(item) is in \(mode) now ('common': whether it was "
                    + "added to kCFRunLoopCommonModes). An invalidated item, or a one-shot timer that fired, is in "
                    + "no mode."
            )
        case .isValid(let item):
            return (
                .queryIsValid,
                "IsValid(\(item)) answers \(said): an item is valid until it is invalidated; a one-shot timer is "
                    + "invalidated right after its callout."
            )
        case .nextFireDate(let timer):
            return (
                .queryNextFireDate,
                "CFRunLoopTimerGetNextFireDate(\(timer)) answers \(said): the date CF keeps for the timer - a date "
                    + "given in the past stays in the past until the timer fires, then each point of its grid; "
                    + "none, CF's 0, once it is invalid."
            )
        case .interval(let timer):
            return (
                .queryInterval,
                "CFRunLoopTimerGetInterval(\(timer)) (Timer.timeInterval) answers \(said): the interval CF stored "
                    + "when the timer was made; 0 for a one-shot timer, and for one given an interval of 0 or less."
            )
        case .tolerance(let timer):
            return (
                .queryTolerance,
                "CFRunLoopTimerGetTolerance(\(timer)) (Timer.tolerance) answers \(said): Linux's CF ignores "
                    + "tolerance and reads 0 whatever was set; the darwin profile keeps what was set."
            )
        case .repeats(let timer):
            return (
                .queryRepeats,
                "CFRunLoopTimerDoesRepeat(\(timer)) answers \(said): true when its interval is above 0; a timer "
                    + "that does not repeat is invalidated after it fires once."
            )
        case .allModes:
            return (
                .queryAllModes,
                "CFRunLoopCopyAllModes answers \(said): every mode created so far. Adding an item, queuing a block "
                    + "(for common too: CF then has a mode of that name) or _CFRunLoopStopMode creates one; running "
                    + "a mode does not, nor does making it common while there are no common items."
            )
        }
    }
}
