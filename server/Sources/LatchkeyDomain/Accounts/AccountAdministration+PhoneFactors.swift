import Foundation

extension AccountAdministration {
    /// Makes `entries` the account's phone factors (an admin's `mfa.enrollments`, which the Admin SDKs send whole): a
    /// listed factor the account has, unchanged, stays; any other listed one is enrolled (a changed one again, under its
    /// id); a phone factor not kept goes. TOTP factors stay and count towards `mfa.maxFactors` with the rest. Each change
    /// is audited and told to the owner, as the owner's own enrollments and withdrawals are.
    func setPhoneFactors(
        _ entries: [AccountChanges.PhoneFactorEntry], of account: Account, language: LanguageTag, by actor: AccountActor,
        requester: RequesterSummary, at now: Date, in transaction: any StoreTransaction
    ) async throws {
        let factors = try await transaction.secondFactors(accountID: account.id)
        if let clash = factors.first(where: { factor in factor.kind == .totp && entries.contains { $0.id == factor.id } }) {
            throw SignInError.invalidArgument("\(clash.id) is a TOTP factor.")
        }
        let phones = factors.filter { $0.kind == .phone }
        let stays = phones.filter { factor in entries.contains { $0.matches(factor) } }
        let enrolled = entries.filter { entry in !stays.contains { entry.matches($0) } }
        let removed = phones.filter { !stays.contains($0) }
        guard factors.count - removed.count + enrolled.count <= finisher.secondFactors.maximumFactors else { throw SignInError.secondFactorLimitExceeded }
        var changes: [(AuditEvent.Kind, SecurityNotice.Change, SecondFactor)] = []
        for factor in removed {
            _ = try await transaction.deleteSecondFactor(id: factor.id, accountID: account.id)
            changes.append((.secondFactorRemoved, .factorRemoved, factor))
        }
        for entry in enrolled {
            let factor = SecondFactor(
                id: entry.id ?? Account.makeID(), accountID: account.id, displayName: entry.displayName, enrolledAt: entry.enrolledAt ?? now,
                method: .phone(entry.phoneNumber))
            try await transaction.insert(factor)
            changes.append((.secondFactorAdded, .factorAdded, factor))
        }
        for (audit, notice, factor) in changes {
            try await transaction.record(
                AuditEvent(audit, at: now, accountID: account.id, email: account.email, requester: requester, detail: "phone, by \(actor.auditName)"))
            var told = SecurityNotice(notice, of: factor, language: language, at: now, requester: requester)
            told.sessionsKept = true
            try await notices.queue(told, to: account, at: now, in: transaction)
        }
    }
}

extension AccountChanges.PhoneFactorEntry {
    /// Whether the entry names `factor` as it is.
    func matches(_ factor: SecondFactor) -> Bool {
        id == factor.id && phoneNumber == factor.phoneNumber && displayName == factor.displayName
    }
}
