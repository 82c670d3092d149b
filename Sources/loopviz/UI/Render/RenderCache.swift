/// What `render` keeps from one frame to the next to draw the next one faster: the timeline's rows. The runtime
/// owns it and passes it in; a fresh cache draws the very same screen, only slower, so `render(_:)` without one is
/// a pure function of the model.
struct RenderCache {
    var timeline = TimelineRows()
}
