/// The status bar's words on following: stopped (why comes as the message), ended, or paused with the way back.
func followStatus(_ session: Session, following: Bool, keys: KeyMap = .standard) -> String {
    if session.followProblem != nil { return "following stopped  " }
    if session.liveEnded { return "program ended  " }
    return following ? "" : Session.followPausedMarker(keys) + "  "
}
