// Package originauth binds a credential (a GitHub token, an API key) to one origin:
// the scheme, host and port of the API it was given for. Every client that carries a
// credential sends its requests through a Binding, so the credential can never leave
// with a redirect:
//
//   - the credential header is set on requests to the origin, and removed from every
//     request to any other origin, whoever set it (go-github's token transport sets it
//     on every request; net/http keeps it across a redirect to another port);
//   - a redirect from https to http is refused;
//   - a redirect to another origin is refused (API calls, whose answer must come from
//     the API) or followed without the credential (downloads, which GitHub redirects
//     to storage hosts), as the Binding's Policy says; either way it is reported, with
//     both origins named.
//
// It imports nothing from evalgate, so the GitHub adapter, the chat client of the judge
// and of the runner, and anything else that holds a credential can share it.
package originauth
