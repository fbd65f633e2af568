-- What every scenario script shares: thread ids, counting non-2xx answers, per-thread queue files (sign-in codes,
-- refresh tokens) and the one-line JSON summary that scripts/bench.py reads.
--
-- wrk runs setup() and done() in its main Lua state and init(), request(), response() and delay() in one state
-- per thread, so per-thread counters are globals that done() collects with thread:get().
-- Settings arrive as BENCH_* environment variables set by bench.py.
local common = {}

common.api_key = os.getenv("BENCH_API_KEY")
common.threads = tonumber(os.getenv("BENCH_THREADS") or "2")
local directory = os.getenv("BENCH_DIR")
local queue_name = os.getenv("BENCH_QUEUE") -- input queue of this run, if any
-- Several wrk processes at once (one per Latchkey instance) number their threads on from each other, so each
-- thread keeps its own queue files and addresses.
local thread_offset = tonumber(os.getenv("BENCH_THREAD_OFFSET") or "0")
-- Where done() writes the latency distribution, so bench.py can merge several wrk processes' percentiles.
local percentiles_path = os.getenv("BENCH_PERCENTILES")
-- Above 1, each request names one of this many client addresses in X-Forwarded-For (the server trusts 127.0.0.1 as
-- its proxy), so the per-IP rate-limit counters spread as a real population's do instead of all meeting in one row.
local client_addresses = tonumber(os.getenv("BENCH_CLIENT_ADDRESSES") or "1")
local seeded = false

non2xx = 0 -- answers outside 200...299: a single one fails the scenario
exhausted = 0 -- requests wanted after this thread's queue ran dry: too few codes were generated
sample = "" -- the first failing answer, so the failure explains itself
position = 0 -- queue lines consumed, including by earlier runs; done() saves it so the next run skips them

local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("id", thread_offset + #threads)
end

-- `headers` with the client address of the request about to be made, when the run spreads them.
function common.client(headers)
    if client_addresses > 1 then
        if not seeded then
            math.randomseed(os.time() * 100 + id)
            seeded = true
        end
        local n = math.random(client_addresses)
        headers["X-Forwarded-For"] = "10." .. math.floor(n / 65536) % 256 .. "." .. math.floor(n / 256) % 256 .. "." .. n % 256
    end
    return headers
end

-- Counts a non-2xx answer and keeps the first one; true for a 2xx.
function common.check(status, body)
    if status >= 200 and status < 300 then
        return true
    end
    common.fail(status .. " " .. string.sub(body or "", 1, 300))
    return false
end

-- Counts an answer that is wrong although its status is 2xx (say, a missing token) like a non-2xx one.
function common.fail(description)
    non2xx = non2xx + 1
    if sample == "" then
        sample = description
    end
end

-- `<BENCH_DIR>/<name>-<thread>.txt`: one line per queued item.
function common.path(name, thread)
    return directory .. "/" .. name .. "-" .. (thread or id) .. ".txt"
end

local function position_path(name, thread)
    return directory .. "/" .. name .. "-" .. thread .. ".pos"
end

-- The thread's queue of lines not consumed by earlier runs. Items pushed later are appended to the same file, so
-- file order and queue order stay the same and `position` stays a line number.
function common.open_queue(name)
    local skip = 0
    local saved = io.open(position_path(name, id))
    if saved then
        skip = tonumber(saved:read("*l")) or 0
        saved:close()
    end
    -- `tail` is kept rather than taken from #items: once pop has cleared the front, # may return any border of
    -- the table, 0 included, and an item pushed there would never be popped (refresh's queue then ran dry).
    local queue = { head = 1, tail = 0, items = {} }
    local file = io.open(common.path(name))
    if file then
        local line_number = 0
        for line in file:lines() do
            line_number = line_number + 1
            if line_number > skip then
                queue.tail = queue.tail + 1
                queue.items[queue.tail] = line
            end
        end
        file:close()
    end
    position = skip
    return queue
end

function common.pop(queue)
    local item = queue.items[queue.head]
    if item then
        queue.items[queue.head] = nil
        queue.head = queue.head + 1
        position = position + 1
    end
    return item
end

function common.push(queue, item)
    queue.tail = queue.tail + 1
    queue.items[queue.tail] = item
end

-- Marks the queue as dry and stops this thread: a request without a fresh code or token would only produce an
-- error the server is right to answer, so the run fails as "exhausted" instead. wrk needs some request back.
function common.exhausted()
    exhausted = exhausted + 1
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
end

-- Appends lines to a thread's file. Fully buffered: stdio flushes the rest when wrk exits, and bench.py checks
-- the line count against the number of good answers.
function common.writer(name)
    return io.open(common.path(name), "a")
end

local function escape(text)
    return (text:gsub('[%c"\\]', function(c)
        return string.format("\\u%04x", string.byte(c))
    end))
end

function done(summary, latency, requests)
    local failed, dry, first = 0, 0, ""
    for index, thread in ipairs(threads) do
        failed = failed + thread:get("non2xx")
        dry = dry + thread:get("exhausted")
        if first == "" then
            first = thread:get("sample")
        end
        if queue_name then
            local file = io.open(position_path(queue_name, thread_offset + index), "w")
            file:write(thread:get("position"), "\n")
            file:close()
        end
    end
    if percentiles_path and summary.requests > 0 then
        -- "percent µs" lines: the distribution on a fine grid (every half percent, then 99.6 to 99.99), between the
        -- minimum and the maximum. wrk 4.1 has no cheap walk over its histogram (latency(i) scans it from the start
        -- at every call), while each percentile() is one scan.
        local file = io.open(percentiles_path, "w")
        file:write("0 ", latency.min, "\n")
        local grid = {}
        for half = 1, 199 do
            grid[#grid + 1] = half / 2
        end
        for _, p in ipairs({ 99.6, 99.7, 99.8, 99.9, 99.95, 99.99 }) do
            grid[#grid + 1] = p
        end
        for _, p in ipairs(grid) do
            file:write(p, " ", latency:percentile(p), "\n")
        end
        file:write("100 ", latency.max, "\n")
        file:close()
    end
    local errors = summary.errors
    io.write(string.format(
        'BENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f,'
            .. '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d,"non2xx":%d,"exhausted":%d,"sample":"%s"}\n',
        summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max, latency.mean,
        errors.connect, errors.read, errors.write, errors.timeout, failed, dry, escape(first)))
end

return common
