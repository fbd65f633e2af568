-- sms: accounts:sendVerificationCode with a new number per request, so each one takes the full durable path (the
-- code's verification and its sealed text stored in one transaction, after the send's limits are counted).
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

local tag = tonumber((os.getenv("BENCH_TAG") or "r0"):sub(2)) % 100 -- differs between runs, so no number repeats
local headers = { ["Content-Type"] = "application/json" }
local path = "/v1/accounts:sendVerificationCode?key=" .. common.api_key
local sent = 0

function request()
    sent = sent + 1
    -- A British mobile number (+44 7 and nine digits): the run's tag, the thread and the thread's count.
    local number = string.format("+447%02d%02d%05d", tag, id % 100, sent % 100000)
    return wrk.format("POST", path, common.client(headers), '{"phoneNumber":"' .. number .. '"}')
end

function response(status, headers, body)
    common.check(status, body)
end
