// Command boardd runs an electronic chess board: it reads the sensors and
// the clock, reconstructs the moves, checks them against the FIDE Laws and
// publishes the game over MQTT. Run "boardd help" for its subcommands.
package main
