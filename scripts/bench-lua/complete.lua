-- complete: accounts:signInWithEmailLink, each with a code generated beforehand (BENCH_QUEUE), so every request
-- creates an account and signs an ID token. Each refresh token goes to BENCH_OUTPUT for the refresh scenario.
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

local headers = { ["Content-Type"] = "application/json" }
local path = "/v1/accounts:signInWithEmailLink?key=" .. common.api_key
local codes, out

function init(args)
    codes = common.open_queue(os.getenv("BENCH_QUEUE"))
    out = common.writer(os.getenv("BENCH_OUTPUT"))
end

function request()
    local line = common.pop(codes)
    if not line then
        return common.exhausted()
    end
    local email, code = line:match("^(%S+) (%S+)$")
    return wrk.format("POST", path, common.client(headers), '{"email":"' .. email .. '","oobCode":"' .. code .. '"}')
end

function response(status, headers, body)
    if exhausted > 0 or not common.check(status, body) then
        return
    end
    local token = body:match('"refreshToken":"([^"]+)"')
    if not token then
        return common.fail("no refreshToken in " .. string.sub(body, 1, 300))
    end
    out:write(token, "\n")
end
