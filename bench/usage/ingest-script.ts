/**
 * The wrk script of the ingest load: POST /v1/events with one fixed batch, paced at `rate`
 * requests per second over all connections (open loop: each request takes the next slot of a
 * schedule kept on the monotonic clock through LuaJIT's ffi; wrk's `delay()` waits for it, and
 * wrk times a request from when it is written, so the wait is not in the latency). Requests
 * rotate over `networks` client networks in X-Forwarded-For, as many pages behind a proxy do.
 */
export function ingestScript(options: { body: string; rate: number; networks: number }): string {
  return `
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } cp_timespec;
int clock_gettime(int clk_id, cp_timespec *tp);
]]
local ts = ffi.new("cp_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local interval = 1000 / ${options.rate}
local next_at = nil
local n = 0
local body = ${JSON.stringify(options.body)}

function delay()
  local t = now_ms()
  if next_at == nil then next_at = t end
  -- Behind schedule (every connection busy): catch up by a few slots at most, never in a burst.
  next_at = math.max(next_at + interval, t - 4 * interval)
  return math.max(0, math.floor(next_at - t + 0.5))
end

function request()
  n = n + 1
  return wrk.format("POST", "/v1/events", {
    ["Content-Type"] = "text/plain;charset=UTF-8",
    ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
    ["X-Forwarded-For"] = "10.77." .. (n % ${options.networks}) .. ".1",
  }, body)
end
`;
}
