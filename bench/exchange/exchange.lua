-- wrk script of run.ts: POSTs the token exchange to the token endpoint as `cpc` does
-- (WRK_BODY_HEAD .. subject token .. WRK_BODY_TAIL). The subject token is WRK_SUBJECT_TOKEN,
-- the same in every request, or (WRK_TOKENS_FILE, one per line) the next unused one: a CI
-- token's jti is accepted once. A response counts as bad unless its status is
-- WRK_EXPECT_STATUS and its body holds WRK_EXPECT: wrk alone counts only non-2xx.
-- done() prints the summary as one JSON line, with how many requests found the list used up
-- (they resend its last token, which the server refuses: bad responses).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Accept"] = "application/json"
local head = os.getenv("WRK_BODY_HEAD")
local tail = os.getenv("WRK_BODY_TAIL")
local expectStatus = tonumber(os.getenv("WRK_EXPECT_STATUS"))
local expect = os.getenv("WRK_EXPECT")
local find = string.find

local tokens = nil
local tokensFile = os.getenv("WRK_TOKENS_FILE")
if tokensFile ~= nil and tokensFile ~= "" then
  tokens = {}
  for line in io.lines(tokensFile) do
    if line ~= "" then table.insert(tokens, line) end
  end
else
  wrk.body = head .. os.getenv("WRK_SUBJECT_TOKEN") .. tail
end

bad = 0
exhausted = 0
local cursor = 1

if tokens ~= nil then
  function request()
    local token = tokens[cursor]
    if token == nil then
      exhausted = exhausted + 1
      token = tokens[#tokens]
    else
      cursor = cursor + 1
    end
    return wrk.format(nil, nil, nil, head .. token .. tail)
  end
end

function response(status, headers, body)
  if status ~= expectStatus or not find(body, expect, 1, true) then
    bad = bad + 1
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local badResponses = 0
  local exhaustedRequests = 0
  for _, thread in ipairs(threads) do
    badResponses = badResponses + thread:get("bad")
    exhaustedRequests = exhaustedRequests + thread:get("exhausted")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"p50Us":%.1f,"p99Us":%.1f,"socketErrors":%d,"badResponses":%d,"exhausted":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, badResponses, exhaustedRequests))
end
