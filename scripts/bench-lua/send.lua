-- send: accounts:sendOobCode with a new address per request, so each one takes the full durable path (a pending
-- request and its sealed email stored in one transaction). With BENCH_RATE set, requests are paced to that many
-- per second in total, for the latency at a given load.
local common = dofile(os.getenv("BENCH_LUA") .. "/common.lua")

local continue_url = os.getenv("BENCH_CONTINUE_URL")
local tag = os.getenv("BENCH_TAG") -- differs between runs, so no address repeats
local rate = tonumber(os.getenv("BENCH_RATE") or "")
local headers = { ["Content-Type"] = "application/json" }
local path = "/v1/accounts:sendOobCode?key=" .. common.api_key
local prefix
local sent = 0

function init(args)
    prefix = '{"requestType":"EMAIL_SIGNIN","canHandleCodeInApp":true,"continueUrl":"' .. continue_url
        .. '","email":"' .. tag .. "t" .. id .. "n"
end

function request()
    sent = sent + 1
    return wrk.format("POST", path, common.client(headers), prefix .. sent .. '@example.com"}')
end

function response(status, headers, body)
    common.check(status, body)
end

if rate then
    -- wrk2 (constant rate) is not in Debian. Instead each thread keeps a schedule of evenly spaced send times and
    -- every request waits for the next free slot: the total rate is BENCH_RATE as long as enough connections are
    -- idle, and wrk measures latency from the moment the request is written, so the wait is not counted.
    local ffi = require("ffi")
    ffi.cdef([[
        typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
        int clock_gettime(int clock, bench_timespec *time);
    ]])
    local CLOCK_MONOTONIC = 1
    local now = ffi.new("bench_timespec")
    local interval = common.threads * 1000 / rate -- milliseconds between this thread's requests
    local next_slot

    local function milliseconds()
        ffi.C.clock_gettime(CLOCK_MONOTONIC, now)
        return tonumber(now.tv_sec) * 1000 + tonumber(now.tv_nsec) / 1e6
    end

    function delay()
        local current = milliseconds()
        local slot = next_slot or current
        next_slot = slot + interval
        -- wrk takes whole milliseconds; a request whose slot has passed goes at once, so the schedule catches up.
        return math.max(0, math.floor(slot - current))
    end
end
