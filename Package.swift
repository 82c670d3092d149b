// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "loopviz",
    products: [
        .library(name: "LoopEngine", targets: ["LoopEngine"]),
        .executable(name: "loopviz", targets: ["loopviz"]),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "LoopEngine"),
        .executableTarget(
            name: "loopviz",
            dependencies: ["LoopEngine", "CNcurses"]
        ),
        .testTarget(
            name: "LoopEngineTests",
            dependencies: ["LoopEngine"],
            exclude: ["Snapshots"],
            linkerSettings: [.linkedLibrary("Foundation")]
        ),
    ]
)
