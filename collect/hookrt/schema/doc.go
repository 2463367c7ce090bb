// Package schema is the hook of a schema binary (collect.BuildSchema):
// only the candidate selector, NopolCand. Like hookrt, it is never
// imported: collect embeds schema.go and renames its package.
package schema
