// The registry entries of the node-set algorithms, one file each in this
// folder (its body and its description together). src/algorithms.cpp lists
// them; nothing else names them.
#pragma once

#include "jumphash/algorithms.hpp"

namespace jumphash::node_set {

extern const Algorithm kKetama;       // ketama.cpp: libmemcached KETAMA_WEIGHTED / KETAMA
extern const Algorithm kLibketama;    // libketama.cpp: last.fm's ketama.c
extern const Algorithm kNginx;        // nginx.cpp: hash $key consistent
extern const Algorithm kGroupcache;   // groupcache.cpp: groupcache consistenthash (Karger ring)
extern const Algorithm kRendezvous;   // rendezvous.cpp: go-rendezvous with xxhash64
extern const Algorithm kEnvoyRing;    // envoy_ring.cpp: Envoy ring_hash
extern const Algorithm kMaglev;       // maglev.cpp: Envoy Maglev
extern const Algorithm kMemento;      // memento.cpp: MementoHash, the authors' C++ engine
extern const Algorithm kMementoJava;  // memento_java.cpp: MementoHash, the authors' Java engine

}  // namespace jumphash::node_set
