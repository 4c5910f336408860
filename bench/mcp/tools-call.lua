-- wrk script of run.ts: POSTs one JSON-RPC request (WRK_BODY) with the MCP headers and,
-- when given, WRK_AUTHORIZATION. A response counts as bad unless it is a 200 whose body
-- holds WRK_EXPECT and no tool error: wrk alone counts only non-2xx, and MCP reports
-- JSON-RPC and tool errors inside 200s. done() prints the summary as one JSON line.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  wrk.headers["Authorization"] = authorization
end
local expect = os.getenv("WRK_EXPECT")
local find = string.find

bad = 0
function response(status, headers, body)
  if status ~= 200 or not find(body, expect, 1, true) or find(body, '"isError":true', 1, true) then
    bad = bad + 1
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local badResponses = 0
  for _, thread in ipairs(threads) do
    badResponses = badResponses + thread:get("bad")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"p50Us":%.1f,"p99Us":%.1f,"socketErrors":%d,"badResponses":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, badResponses))
end
