package main

// The time zones of -time-zone come with the program: a machine without
// a zone database (a slim container, Windows without Go) reads dates in
// Europe/Berlin as any other does.
import _ "time/tzdata"
