-- wrk script: method, path prefix, key count, auth and value size from the environment.
-- Without keys every request is the same and is built once.
local method = os.getenv("BENCH_METHOD") or "GET"
local prefix = os.getenv("BENCH_PATH") or "/"
local keys = tonumber(os.getenv("BENCH_KEYS") or "0")
local auth = os.getenv("BENCH_AUTH")
local value = string.rep("v", tonumber(os.getenv("BENCH_VALUE_BYTES") or "100"))
local headers = { ["Content-Type"] = "text/plain" }
if auth then headers["Authorization"] = auth end
local body = nil
if method == "PUT" or method == "POST" then body = value end
local fixed = nil

math.randomseed(os.time())

request = function()
  if keys == 0 then
    -- built on first use: wrk.host (the Host header) is not known while the script loads
    fixed = fixed or wrk.format(method, prefix, headers, body)
    return fixed
  end
  return wrk.format(method, prefix .. "k" .. math.random(0, keys - 1), headers, body)
end
