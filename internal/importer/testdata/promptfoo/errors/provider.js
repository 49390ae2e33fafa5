// A stand-in provider: echoes the rendered prompt, except that the n-th call for a
// prompt that asks for it fails (promptfoo runs with -j 1, so the calls are in order).
const calls = {};
class FlakyEcho {
  id() { return 'flaky-echo'; }
  async callApi(prompt) {
    calls[prompt] = (calls[prompt] || 0) + 1;
    const m = /FAIL ON CALL (\d+)/.exec(prompt);
    if (m && calls[prompt] === Number(m[1])) {
      return { error: 'API error: 503 Service Unavailable (call ' + calls[prompt] + ')' };
    }
    return { output: prompt, tokenUsage: { prompt: 10, completion: prompt.length, total: 10 + prompt.length } };
  }
}
module.exports = FlakyEcho;
