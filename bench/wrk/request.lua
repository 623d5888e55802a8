-- wrk script: method, path prefix, key count and auth from the environment.
local method = os.getenv("BENCH_METHOD") or "GET"
local prefix = os.getenv("BENCH_PATH") or "/"
local keys = tonumber(os.getenv("BENCH_KEYS") or "0")
local auth = os.getenv("BENCH_AUTH")
local value = string.rep("v", 100)

math.randomseed(os.time())

request = function()
  local path = prefix
  if keys > 0 then path = prefix .. "k" .. math.random(0, keys - 1) end
  local headers = { ["Content-Type"] = "text/plain" }
  if auth then headers["Authorization"] = auth end
  local body = nil
  if method == "PUT" or method == "POST" then body = value end
  return wrk.format(method, path, headers, body)
end
