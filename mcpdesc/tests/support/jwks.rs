//! Signing keys a test makes (RSA, P-256, Ed25519) with their public JWKs, and a
//! JWKS endpoint over plain HTTP/1.1 that counts its fetches.

#![allow(dead_code)] // Each including test uses part of it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A signing key of the test and its public JWK.
pub struct TestKey {
    pub encoding: EncodingKey,
    pub alg: Algorithm,
    pub jwk: Jwk,
}

impl TestKey {
    pub fn new(encoding: EncodingKey, alg: Algorithm, kid: &str) -> Self {
        let mut jwk = Jwk::from_encoding_key(&encoding, alg).unwrap();
        jwk.common.key_id = Some(kid.to_owned());
        TestKey { encoding, alg, jwk }
    }

    pub fn kid(&self) -> &str {
        self.jwk.common.key_id.as_deref().unwrap()
    }

    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid().to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

pub fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).unwrap();
    bytes
}

pub fn rsa_key(kid: &str) -> TestKey {
    use rsa::pkcs1::EncodeRsaPrivateKey;
    use rsa::Generate;
    let private = rsa::PrivateKey::generate();
    let der = private.to_pkcs1_der().unwrap();
    TestKey::new(
        EncodingKey::from_rsa_der(der.as_bytes()),
        Algorithm::RS256,
        kid,
    )
}

pub fn ec_key(kid: &str) -> TestKey {
    use p256::pkcs8::EncodePrivateKey;
    let secret = p256::SecretKey::from_slice(&random::<32>()).unwrap();
    let der = secret.to_pkcs8_der().unwrap();
    TestKey::new(
        EncodingKey::from_ec_der(der.as_bytes()),
        Algorithm::ES256,
        kid,
    )
}

pub fn ed_key(kid: &str) -> TestKey {
    // A PKCS#8 v1 Ed25519 private key (RFC 8410): the fixed prefix, then the
    // 32-byte seed. (jsonwebtoken reads this form only, not the v2 one that carries
    // the public key too.)
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend_from_slice(&random::<32>());
    TestKey::new(EncodingKey::from_ed_der(&der), Algorithm::EdDSA, kid)
}

pub fn key_set(keys: &[&TestKey]) -> String {
    serde_json::to_string(&JwkSet {
        keys: keys.iter().map(|k| k.jwk.clone()).collect(),
    })
    .unwrap()
}

/// A JWKS endpoint over plain HTTP/1.1: serves the current document, counts fetches.
pub struct JwksServer {
    pub url: String,
    document: Arc<Mutex<String>>,
    fetches: Arc<AtomicUsize>,
}

impl JwksServer {
    pub async fn start(document: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
        let document = Arc::new(Mutex::new(document));
        let fetches = Arc::new(AtomicUsize::new(0));
        let (doc, count) = (document.clone(), fetches.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let (doc, count) = (doc.clone(), count.clone());
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                    assert!(request.starts_with(b"GET /jwks.json "));
                    count.fetch_add(1, Ordering::SeqCst);
                    let body = doc.lock().unwrap().clone();
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        JwksServer {
            url,
            document,
            fetches,
        }
    }

    pub fn publish(&self, document: String) {
        *self.document.lock().unwrap() = document;
    }

    pub fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}
