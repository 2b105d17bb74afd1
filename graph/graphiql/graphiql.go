// Package graphiql serves GraphiQL, the in-browser GraphQL IDE, with its
// assets bundled (graphiql 3.8.3, react and react-dom 18.3.1, MIT
// licensed; stored gzipped) so that no CDN is needed. The page asks for an
// access token and sends it as the Authorization header.
package graphiql

import (
	"bytes"
	"compress/gzip"
	"embed"
	"html/template"
	"io"
	"net/http"
	"path"
	"strings"
)

//go:embed assets/*.gz
var assets embed.FS

var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// Handler serves the page at base and the assets under base + "/assets/".
func Handler(base string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if name, ok := strings.CutPrefix(r.URL.Path, base+"/assets/"); ok {
			serveAsset(w, r, name)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		var buf bytes.Buffer
		if err := page.Execute(&buf, map[string]string{"Base": base}); err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write(buf.Bytes())
	})
}

// serveAsset sends a bundled file gzipped when the client accepts it, and
// inflated otherwise.
func serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	ct, ok := contentTypes[path.Ext(name)]
	data, err := assets.ReadFile("assets/" + name + ".gz")
	if !ok || err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(data)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	_, _ = io.Copy(w, zr)
}

// page is GraphiQL with a token bar. The token, a query and run=1 can be
// given in the URL fragment (#token=…&query=…&run=1), which browsers never
// send to the server; the token is kept in the tab's sessionStorage only.
var page = template.Must(template.New("graphiql").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>fourd GraphQL</title>
<link rel="stylesheet" href="{{.Base}}/assets/graphiql.min.css">
<style>
body{margin:0;height:100vh;display:flex;flex-direction:column;font-family:system-ui,sans-serif}
#bar{display:flex;gap:8px;align-items:center;padding:6px 12px;background:#1f2937;color:#f9fafb;font-size:14px}
#bar input{flex:1;max-width:560px;padding:4px 6px;font-family:monospace}
#graphiql{flex:1;min-height:0}
</style>
</head>
<body>
<form id="bar"><b>fourd</b><label for="token">Access token</label>
<input id="token" type="password" autocomplete="off" placeholder="fdp_…">
<button type="submit">Use token</button><span id="state"></span></form>
<div id="graphiql"></div>
<script src="{{.Base}}/assets/react.production.min.js"></script>
<script src="{{.Base}}/assets/react-dom.production.min.js"></script>
<script src="{{.Base}}/assets/graphiql.min.js"></script>
<script>
(function () {
  var params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) { sessionStorage.setItem("fourd-token", params.get("token")); }
  var input = document.getElementById("token");
  input.value = sessionStorage.getItem("fourd-token") || "";
  function token() { return sessionStorage.getItem("fourd-token") || ""; }
  function show() { document.getElementById("state").textContent = token() ? "token set" : "no token: operations answer unauthorized"; }
  var defaultQuery = params.get("query") || "# Dashboards: the most severe open findings with their resources.\n" +
    "query Dashboard {\n  findings(first: 10, filter: {status: OPEN}) {\n    totalCount\n" +
    "    edges { node { id severity dimension title resource { id type name } } }\n    pageInfo { hasNextPage endCursor }\n  }\n" +
    "  findingStats(groupBy: [SEVERITY, DIMENSION]) { total groups { severity dimension count } }\n}\n";
  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  // GraphiQL fetches the schema again whenever it is given a new fetcher,
  // so every token change renders it with a fresh one: a pasted token
  // loads the schema, docs and completions at once.
  function render() {
    var bearer = token();
    var fetcher = function (body, opts) {
      var headers = Object.assign({}, (opts && opts.headers) || {}, {"Content-Type": "application/json", "Accept": "application/json"});
      if (bearer) { headers["Authorization"] = "Bearer " + bearer; }
      return fetch("{{.Base}}", {method: "POST", headers: headers, body: JSON.stringify(body)}).then(function (r) { return r.json(); });
    };
    root.render(React.createElement(GraphiQL, {fetcher: fetcher, defaultQuery: defaultQuery, query: params.get("query") || undefined}));
  }
  function useToken() {
    var v = input.value.trim();
    if (v === token()) { return; }
    sessionStorage.setItem("fourd-token", v); show(); render();
  }
  var pending;
  input.addEventListener("input", function () { clearTimeout(pending); pending = setTimeout(useToken, 300); });
  document.getElementById("bar").addEventListener("submit", function (e) { e.preventDefault(); clearTimeout(pending); useToken(); });
  show();
  render();
  if (params.get("run") === "1") {
    var tries = 0, timer = setInterval(function () {
      var b = document.querySelector(".graphiql-execute-button");
      if (b || ++tries > 50) { clearInterval(timer); if (b) { b.click(); } }
    }, 100);
  }
})();
</script>
</body>
</html>
`))
