/// A request of `performSelector:target:argument:order:modes:` queued on a loop: its task (selector and argument
/// together), its target, its order and the modes it may run in.
struct OrderedPerform {
    var task: String
    var target: String
    var order: Int
    var modes: [ModeName]
    var action: () -> Void
}
