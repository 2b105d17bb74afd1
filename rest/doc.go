// Package rest serves fourd's documented REST API (/v1) and the OAuth 2.0
// endpoints (/oauth/*) over findings.Service, audit.Service and identity.Service: handlers
// parse input, call one Service method and write JSON; one wrapper
// turns errors into the {"error":{code,message,request_id}} envelope.
package rest
