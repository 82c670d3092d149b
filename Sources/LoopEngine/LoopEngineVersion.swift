/// The version shared by the library and the `loopviz` executable.
package enum LoopEngineVersion {
    package static let string = "0.1.0"
}
