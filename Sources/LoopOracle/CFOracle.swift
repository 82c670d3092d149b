import LoopEngine

/// Placeholder until the oracle lands.
public enum CFOracle {}
