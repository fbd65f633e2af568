-- Generates sign-in codes for the complete scenario as an admin would (returnOobLink: the code comes back in the
-- answer and no email is stored). Each address and code go to this thread's BENCH_OUTPUT file; a thread stops
-- after BENCH_LIMIT codes, and bench.py interrupts wrk once every thread is done.
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

local continue_url = os.getenv("BENCH_CONTINUE_URL")
local tag = os.getenv("BENCH_TAG")
local limit = tonumber(os.getenv("BENCH_LIMIT"))
local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. os.getenv("BENCH_ADMIN_TOKEN"),
}
local path = "/v1/accounts:sendOobCode?key=" .. common.api_key
local prefix, out
local issued, written = 0, 0

function init(args)
    out = common.writer(os.getenv("BENCH_OUTPUT"))
    prefix = '{"requestType":"EMAIL_SIGNIN","returnOobLink":true,"continueUrl":"' .. continue_url
        .. '","email":"' .. tag .. "t" .. id .. "n"
end

function request()
    issued = issued + 1
    return wrk.format("POST", path, headers, prefix .. issued .. '@example.com"}')
end

function response(status, headers, body)
    if written >= limit or not common.check(status, body) then
        return
    end
    local email, code = body:match('"email":"([^"]+)"'), body:match('"oobCode":"([^"]+)"')
    if not (email and code) then
        return common.fail("no email or oobCode in " .. string.sub(body, 1, 300))
    end
    out:write(email, " ", code, "\n")
    written = written + 1
    -- Flushed now and then so bench.py can count the lines while wrk runs.
    if written % 500 == 0 or written == limit then
        out:flush()
    end
    if written == limit then
        wrk.thread:stop()
    end
end
