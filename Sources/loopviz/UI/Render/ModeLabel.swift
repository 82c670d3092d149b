import LoopEngine

/// `[Modal] `: the modes of an item that is not in the mode being run. Dimming alone does not show in text
/// output (`loopviz screen`), where a Modal-only timer would look like a default one. An item added from the
/// keyboard declares no mode (a poke adds it to one at its time): it gets no label.
func modeLabel(_ item: ItemSpec) -> String {
    item.modes.isEmpty ? "" : "[" + item.modes.map(\.rawValue).joined(separator: ", ") + "] "
}
