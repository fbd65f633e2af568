extension RateLimiter.Check {
    /// The windows one text to `number` counts against: the number, the client's address, the number's calling code
    /// and, unless `budgeted` is false (a second-factor challenge of an enrolled account, which the budget never
    /// stops), the service's daily budget.
    static func texts(to number: PhoneNumber, by caller: Caller, budgeted: Bool = true) -> [RateLimiter.Check] {
        let checks = [
            RateLimiter.Check(.textPerNumber, number.value), RateLimiter.Check(.textPerIP, caller.ipAddress),
            RateLimiter.Check(.textPerCallingCode, "+\(number.callingCode)"),
        ]
        return caller.limits(checks + (budgeted ? [RateLimiter.Check(.textBudget, "service")] : []))
    }
}
