package rest

import "html/template"

// The OAuth pages: plain server-rendered HTML, no scripts, styles inline
// (the Content-Security-Policy allows nothing else). On the consent page
// Allow is the form's first submit button, so Enter (implicit submission)
// allows; scopes are shown in words with their code beside.

const pageStyle = `<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}ul{padding-left:1.2rem}code{background:#eef;padding:0 .3em;border-radius:3px}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
.err{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
.buttons{display:flex;gap:.8rem;margin-top:1.4rem}button{flex:1;padding:.6rem;border-radius:4px;border:1px solid #889;font-size:1rem}
button.approve{background:#1f5fd1;color:#fff;border-color:#1f5fd1}
button.link{border:0;background:none;color:#1f5fd1;padding:0;font-size:inherit;text-decoration:underline;cursor:pointer}small{color:#667}
</style>`

var consentTemplate = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize {{.ClientName}} · fourd</title>` + pageStyle + `</head>
<body><main>
<h1><strong>{{.ClientName}}</strong> wants to access your fourd account</h1>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
<p>It asks for these permissions:</p>
<ul id="scopes">
{{- if .Default}}<li>Read everything your role can read</li>{{end}}
{{- range .Scopes}}<li>{{.Words}} <code>{{.}}</code></li>{{end}}
</ul>
<p><small>Permissions your role does not have are not granted.</small></p>
<form method="post" action="/oauth/authorize">
{{- range $k, $v := .Hidden}}
<input type="hidden" name="{{$k}}" value="{{$v}}">
{{- end}}
<input type="hidden" name="csrf_token" value="{{.CSRF}}">
{{- if .SignedIn}}
<p id="signed-in">Signed in as <strong>{{.SignedIn}}</strong>.</p>
{{- else}}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
{{- end}}
<div class="buttons">
<button type="submit" name="decision" value="approve" class="approve">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
{{- if .SignedIn}}
<p><small>Not you? <button type="submit" name="decision" value="switch" class="link" formnovalidate>Sign in as someone else</button></small></p>
{{- end}}
</form>
</main></body></html>
`))

var errorPageTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorization error · fourd</title>` + pageStyle + `</head>
<body><main>
<h1>This authorization request cannot be completed</h1>
<p class="err" role="alert">{{.Message}}</p>
<p><small>Error <code>{{.Code}}</code>, request id <code>{{.RequestID}}</code>.</small></p>
</main></body></html>
`))
