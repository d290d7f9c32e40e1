// Package lint holds no code: its tests check rules of the house over
// every Go file of the module, so that running the tests keeps them.
//
// # Overview
//
// TestFunctionLength fails on any function or method longer than
// [MaxFunctionLines] lines, tests included; assembly and generated files
// (those with a "Code generated ... DO NOT EDIT." line) are not read.
//
// TestImportDirection fails when imports run back up the house: a
// package under internal/ (test support aside) importing a package of
// the module outside internal/, or a file other than a test importing
// internal/testsupport.
//
// TestArchitectureMap fails when a package has no row in the package map
// of docs/architecture.md, or a row names a package that is gone.
package lint

// MaxFunctionLines is the most lines a function declaration may span,
// from its func keyword to its closing brace, both included.
const MaxFunctionLines = 120
