import LoopEngine

/// What the classroom features add to the model: presenter mode, the quiz, and whether the session is recorded.
struct Classroom: Equatable {
    /// Presenter mode (`D`): a larger Why pane and narration, panels hidden one by one, the last key echoed, pokes
    /// locked until `U` unlocks them.
    struct Presenter: Equatable {
        var isOn = false
        /// Pokes are refused while locked (presenter mode starts locked: a stray key must not change the run).
        var pokesLocked = true
        /// The panels hidden (`z` hides the focused one, `Z` shows the hidden ones again one by one).
        var hidden: [AppModel.Panel] = []
        /// The last key pressed, echoed in the status bar so that the audience sees what the teacher typed.
        var lastKey: Key?
    }

    /// When the quiz stops to ask.
    enum QuizMode: Equatable {
        case off
        /// At the lesson's `ask` lines.
        case askPoints
        /// Before every step the loop takes.
        case everyStep
    }

    struct Score: Equatable {
        var right = 0
        var asked = 0
    }

    var presenter = Presenter()
    var quizMode: QuizMode = .off
    /// The question on screen, if any (it takes the keys until it is closed).
    var question: QuizQuestion?
    /// The lesson's `ask` lines already asked (by index), so that stepping back and forth does not ask again.
    var asked: Set<Int> = []
    /// Per lesson (file name): answers right out of questions answered.
    var scores: [String: Score] = [:]
    /// `d` / Enter: playback runs up to this cursor (the next narration) and pauses there.
    var playUntil: Int?
    /// `--record FILE`: the status bar says REC.
    var isRecording = false
}

/// A question on screen: what was asked, the choices, and (once picked) the reveal.
struct QuizQuestion: Equatable {
    var prompt: String
    /// The cursor when it was asked: the events before it are on screen.
    var askedAt: Int
    /// The index in the trace of the real next step: the right answer.
    var answer: Int
    var choices: [QuizChoice]
    /// Which of `choices` is the real next step.
    var correct: Int
    /// The choice picked, once the student answered.
    var picked: Int?
    /// The lesson's own choices did not hold the real next step (after pokes, the run differs): it replaced one.
    var replacedLessonChoice = false
    /// Playback was running when the question stopped it: it runs on after the reveal.
    var resumes: Bool
    /// The first line of the box shown, when its text is taller than the screen (↓ j, ↑ k).
    var scroll = 0
}

extension LoopScript {
    /// The `ask` lines as anchored lines, so that ``NarrationAnchors`` finds their events as it finds the `say`
    /// lines'.
    var questionLines: [Narration] { questions.map { Narration(anchor: $0.anchor, text: $0.prompt) } }
}
