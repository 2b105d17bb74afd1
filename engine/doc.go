// Package engine is fourd's core: the domain vocabulary, the Service with one
// method per use case, and the interfaces of what it needs from the outside.
package engine
