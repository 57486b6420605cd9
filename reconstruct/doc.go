// Package reconstruct turns sensor frames and clock events into chess
// moves, corrections and irregularity alerts. It is pure and deterministic:
// the same input events always give the same output events.
package reconstruct
