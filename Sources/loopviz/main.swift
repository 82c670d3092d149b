import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let status = CommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
