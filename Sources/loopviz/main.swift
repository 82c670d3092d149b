import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe is an error of a write (EPIPE), which ends the command quietly, not a signal that kills it.
signal(SIGPIPE, SIG_IGN)
HeadlessSignals.install()
// The CF oracle runs an async main in a process of its own: this executable, started again.
AsyncMainOracleProcess.install()
let status = StandardOutput.finish(CommandLine.run(Array(CommandLine.arguments.dropFirst())))
exit(status.rawValue)
