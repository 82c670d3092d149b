// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "loopviz",
    // The real backend (epoll), the CF oracle and the bench are built on Linux only. On macOS, LoopEngine needs
    // Swift's `Duration` (macOS 13) and LoopOracle `Synchronization.Atomic` (macOS 15).
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LoopEngine", targets: ["LoopEngine"]),
        .executable(name: "loopviz", targets: ["loopviz"]),
        // Records a real program's run loop into a loopviz trace; Foundation only, so any program can add it.
        .library(name: "LoopRecorder", targets: ["LoopRecorder"]),
        // LoopRecorder as a shared library that records a program it is preloaded into (LD_PRELOAD, Linux): the
        // library of `loopviz record -- PROGRAM`, for programs that do not link the recorder.
        .library(name: "LoopRecorderPreload", type: .dynamic, targets: ["LoopRecorderPreload"]),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "CLoopKernel"),
        .target(name: "LoopEngine", dependencies: ["CLoopKernel"]),
        // Runs scenarios on the real CFRunLoop (swift-corelibs-foundation): the oracle of the differential tests
        // and of `loopviz compare`.
        .target(
            name: "LoopOracle",
            dependencies: ["LoopEngine", "CLoopKernel"],
            linkerSettings: [.linkedLibrary("Foundation", .when(platforms: [.linux]))]
        ),
        // The stack sampler's signal handler and the list of loaded objects (C: a signal handler must be
        // async-signal-safe, which Swift code is not).
        .target(name: "CLoopSampler"),
        .target(
            name: "LoopRecorder",
            dependencies: ["CLoopSampler"],
            linkerSettings: [.linkedLibrary("Foundation", .when(platforms: [.linux]))]
        ),
        // The preloaded library's constructor and crash-signal handlers (C: Swift has neither a constructor nor
        // async-signal-safe code), and the Swift that starts and stops LoopRecorder from them.
        .target(name: "CLoopRecorderPreload"),
        .target(name: "LoopRecorderPreload", dependencies: ["LoopRecorder", "CLoopRecorderPreload"]),
        // The differential fuzzer (`loopviz fuzz`): random scenarios, validated as fair, run on the engine and on
        // the real CFRunLoop, differences confirmed and shrunk. Dev tooling, kept out of the executable's code.
        .target(name: "LoopFuzz", dependencies: ["LoopEngine", "LoopOracle"]),
        .executableTarget(
            name: "loopviz",
            dependencies: ["LoopEngine", "LoopOracle", "LoopFuzz", "LoopRecorder", "CNcurses"]
        ),
        // Records itself with LoopRecorder (a timer, a perform from another thread, a port, one 300 ms hang): .ci/run
        // checks that `loopviz hangs` finds exactly that hang.
        .executableTarget(name: "loopviz-demo", dependencies: ["LoopRecorder"]),
        // The same program without the recorder (no mark, no import): `loopviz record -- loopviz-sample` records it
        // by preloading LoopRecorderPreload; RecordCommandTests check that `hangs` finds exactly its hang.
        .executableTarget(name: "loopviz-sample"),
        // libFuzzer target for the scenario parser: `Scripts/fuzz-parser.sh [SECONDS]`.
        .executableTarget(name: "ParserFuzzer", dependencies: ["LoopEngine"]),
        // Golden-file helpers shared by the test targets.
        .target(name: "SnapshotSupport", path: "Tests/SnapshotSupport"),
        // The deterministic suites: the virtual clock, golden traces and screens, the parser, the UI's update and
        // render, the docs against the code. No real CFRunLoop, no real backend, no sleep (`DeterministicSuiteTests`
        // checks it); `swift test --skip RealTimeJudgeTests` runs them alone.
        .testTarget(
            name: "LoopEngineTests",
            dependencies: ["LoopEngine", "LoopRecorder", "SnapshotSupport"],
            exclude: ["Snapshots"]
        ),
        // Runs the built `loopviz` as a person would: arguments in, output and exit status out.
        .testTarget(
            name: "loopvizTests",
            dependencies: ["loopviz", "LoopFuzz", "SnapshotSupport"],
            exclude: ["Snapshots"]
        ),
        // The real-time judges: the engine against the real CFRunLoop and Foundation's OperationQueue, the real
        // backend on real threads, LoopRecorder on a real loop, and the built loopviz's compare, bench and
        // --clock real. They compare sequences exactly and times within LOOPVIZ_TOLERANCE_MS. Support/ holds links
        // to the harnesses of the deterministic targets (one file, compiled in both).
        .testTarget(
            name: "RealTimeJudgeTests",
            dependencies: ["LoopEngine", "LoopOracle", "LoopRecorder", "loopviz", "SnapshotSupport"],
            swiftSettings: [.define("REAL_TIME_JUDGES")]
        ),
    ]
)
