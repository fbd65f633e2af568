import Latchkey
import ArgumentParser
