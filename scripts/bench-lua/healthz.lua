-- baseline: GET /healthz, the ceiling of the HTTP stack on this machine.
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/healthz"

function response(status, headers, body)
    common.check(status, body)
end
