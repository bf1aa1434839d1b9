-- wrk script: replays pre-signed, unique webhooks from PARLEY_WRK_FILE
-- (one "timestamp signature event-id body" line each) with the headers the service sends, so
-- every request is new work for the server.
local requests = {}
local i = 0

function init(args)
  local file = assert(io.open(os.getenv("PARLEY_WRK_FILE"), "r"))
  for line in file:lines() do
    local ts, sig, id, body = line:match("^(%d+) (%x+) (%S+) (.*)$")
    requests[#requests + 1] = wrk.format("POST", "/webhooks/agent", {
      ["Content-Type"] = "application/json",
      ["x-service-event-id"] = id,
      ["x-service-timestamp"] = ts,
      ["x-service-signature"] = sig,
    }, body)
  end
  file:close()
end

function request()
  i = i + 1
  if i > #requests then i = 1 end
  return requests[i]
end
