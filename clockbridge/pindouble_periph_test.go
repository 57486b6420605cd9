//go:build periphtest

package clockbridge

import (
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// periphPin runs the lever tests on periph's own gpiotest.Pin
// (go test -tags periphtest; needs github.com/jonboulle/clockwork, which
// gpiotest imports, in go.sum).
type periphPin struct{ *gpiotest.Pin }

func newPinDouble(name string) pinDouble {
	return periphPin{&gpiotest.Pin{N: name, Num: -1, EdgesChan: make(chan gpio.Level, 64)}}
}

func (p periphPin) edge(l gpio.Level) { p.EdgesChan <- l }
func (p periphPin) level(l gpio.Level) {
	p.Lock()
	p.L = l
	p.Unlock()
}
