import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every test that waits on another process: PostgreSQL, the Python SMTP sink or OpenID Connect
    /// provider, the `latchkey` binary. Generous, because on a two-core machine busy with other work such tests took
    /// over the minute they once had; and still a bound, so that a hang fails its test instead of stalling the run.
    static var outsideProcesses: Self { .timeLimit(.minutes(5)) }
}
