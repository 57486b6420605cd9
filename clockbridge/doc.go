// Package clockbridge connects chess clocks to boardd: a software clock
// that implements FIDE time controls exactly, a lever and buttons on GPIO,
// and the DGT3000 over I2C. All of them sit behind one Clock interface.
package clockbridge
