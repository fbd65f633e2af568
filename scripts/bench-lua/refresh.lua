-- refresh: POST /v1/token with grant_type refresh_token. Tokens rotate and a reused one revokes its chain, so each
-- request takes an unused token from this thread's queue (filled by the complete scenario) and puts the rotated
-- token its answer carries at the back: the queue never runs dry while answers come back.
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

local headers = { ["Content-Type"] = "application/json" }
local path = "/v1/token?key=" .. common.api_key
local tokens, out

function init(args)
    tokens = common.open_queue(os.getenv("BENCH_QUEUE"))
    out = common.writer(os.getenv("BENCH_QUEUE"))
end

function request()
    local token = common.pop(tokens)
    if not token then
        return common.exhausted()
    end
    return wrk.format("POST", path, common.client(headers), '{"grantType":"refresh_token","refreshToken":"' .. token .. '"}')
end

function response(status, headers, body)
    if exhausted > 0 or not common.check(status, body) then
        return
    end
    local token = body:match('"refresh_token":"([^"]+)"')
    if not token then
        return common.fail("no refresh_token in " .. string.sub(body, 1, 300))
    end
    common.push(tokens, token)
    out:write(token, "\n")
end
