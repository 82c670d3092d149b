/// The version shared by the library and the `loopviz` executable.
public enum LoopEngineVersion {
    public static let string = "0.1.0"
}
